"""Rules engines for Kamen's games: pure, immutable, no I/O."""
