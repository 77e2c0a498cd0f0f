from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    # The app was "scoring" before the house was cut into apps by noun: the label keeps
    # every table's name (scoring_game, ...), the migrations' history and the admin's URLs.
    label = "scoring"

    def ready(self) -> None:
        # Fill the hooks tournaments declares (docs, "Layout"): it never imports the games.
        from tournaments import hooks

        from . import state

        hooks.play_started.fill(state.play_started)
        hooks.deals_entered.fill(state.deals_entered)
