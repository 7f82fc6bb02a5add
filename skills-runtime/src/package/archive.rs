//! archive (issue 29): to be written.
