"""Realtime: the Socket.IO server at /ws (socket), its contract (asyncapi/asyncapi.yaml) and
the emitter every other module uses to send socket messages."""
