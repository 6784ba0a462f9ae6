//! The testkit: a real `phux` binary, a temporary data dir, and bounded waits.
