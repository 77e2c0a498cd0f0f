from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Leagues")

    def ready(self) -> None:
        # Fill the hooks the apps below declare (docs, "Layout"): they never import leagues.
        from referees import hooks
        from tournaments import hooks as tournaments_hooks

        from . import checks, hall_files, lineups, panels, setup

        hooks.correction_refused.fill(checks.correction_refused)
        hooks.game_corrected.fill(checks.game_corrected)
        hooks.front_page_above_referees.fill(panels.leagues_panel)
        tournaments_hooks.kept_director.fill(setup.kept_director)
        tournaments_hooks.player_elsewhere.fill(setup.player_elsewhere)
        tournaments_hooks.team_refused.fill(checks.team_refused)
        tournaments_hooks.team_changed.fill(checks.team_changed)
        tournaments_hooks.seating_plan.fill(lineups.planned_seating)
        tournaments_hooks.league_match_day.fill(setup.is_match_day)
        tournaments_hooks.account_name.fill(hall_files.who)
