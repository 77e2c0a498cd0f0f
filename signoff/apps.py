from django.apps import AppConfig


class SignoffConfig(AppConfig):
    """The sheet's sign-off (5.5.3): the players' PINs, their confirmations, the lock on wrong PINs."""

    name = "signoff"

    def ready(self) -> None:
        # Fill the hook scoring declares (docs, "Hooks"): scoring never imports the sign-off.
        from scoring import hooks

        from . import sheets

        hooks.sheet_signed.fill(sheets.sheet_signed)
