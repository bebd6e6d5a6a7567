"""The main screen's panels: initiative order, declaration queue, resolution log."""
