"""The shared kernel: geometry, boards, line of sight, movement, time, chance,
scenario loading and the game protocol. It never imports a game."""
