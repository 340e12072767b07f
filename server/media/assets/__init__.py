"""Media assets: what can be played, each with an id and a storage directory of its own.

The flow of the media code: assets (this package: the model and the storage) <- sources (what
fills an asset: samples, RTMP, SRT, uploads) -> packaging (ffmpeg ladders, measured playlists)
-> delivery (playlists, signing, routes). ARCHITECTURE.md has the table.
"""
