//! phux-encoders: cast → frames (replayed through the engine) → raster → GIF / APNG.
