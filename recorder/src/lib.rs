//! phux-recorder: asciicast v2/v3 reader and writer, the idle clamp, and the live recording sink.
