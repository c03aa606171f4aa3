//! The testkit's tests, through its public API; one binary, so a change
//! links one test executable.

mod codecs;

mod corpus;
mod generate;
mod layers;
mod oracle;
mod properties;
