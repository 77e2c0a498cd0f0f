"""The sheet's sign-off (5.5.3): the players' PINs, their confirmations, the lock on wrong PINs."""
