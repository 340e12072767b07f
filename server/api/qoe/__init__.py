"""Handlers of the `qoe` tag: the player's quality-of-experience beacons."""
