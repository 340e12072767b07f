"""Handlers of the `calendar` tag: the calendar feeds as calendar apps read them."""
