//! Vector corpus loader (filled in by the vectors issue).
