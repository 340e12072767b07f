"""Packaging: ffmpeg commands built as data (ladders, live HLS), and later their supervisor."""
