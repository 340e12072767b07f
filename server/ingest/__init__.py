"""Live ingest (issue 28): nginx-rtmp as a supervised child and the SRT listeners of the keys in
force (serving.py, srt_listeners.py), nginx's questions about publishers (hooks.py), and the live
inputs that transcode each feed it lets in into its event's recording (live_inputs.py)."""
