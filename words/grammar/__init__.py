"""What every catalogue's entries may be besides a plain template: plural forms."""
