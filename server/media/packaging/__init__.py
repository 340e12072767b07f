"""Packaging: ladders and ffmpeg commands built as data, what they encoded measured, and the
supervisor that keeps a transcoder running."""
