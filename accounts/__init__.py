"""User accounts: letting a person in by user name, and the login throttle."""
