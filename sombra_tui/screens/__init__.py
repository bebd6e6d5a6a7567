"""Screens and modal dialogs; dialogs return their result through `dismiss`."""
