//! [`Decoded`]: what every decoder of the crate returns on success.
//!
//! Its own module so that both wire types' modules can use it without
//! importing the crate root, which re-exports them. It depends on nothing
//! else in the crate.

/// A decoded value and how many input bytes it took.
///
/// Decoders read one value from the front of their input; whatever follows
/// `consumed` belongs to the next field of the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decoded<T> {
    /// The value.
    pub value: T,
    /// How many bytes of the input the value took.
    pub consumed: usize,
}
