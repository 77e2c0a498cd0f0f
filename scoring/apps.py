from django.apps import AppConfig


class ScoringConfig(AppConfig):
    """The deals as the scoresheet records them (5.5.2), valued by the engine."""

    name = "scoring"

    def ready(self) -> None:
        # Fill the hooks tournaments declares (docs, "Layout"): it never imports the games.
        from tournaments import hooks

        from . import state

        hooks.play_started.fill(state.play_started)
        hooks.deals_entered.fill(state.deals_entered)
