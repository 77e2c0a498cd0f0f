from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"

    def ready(self) -> None:
        # Fill the hooks tournaments declares (README, "Layout"): it never imports scoring.
        from tournaments import hooks

        from . import lists, progress, standings

        hooks.ranking.fill(standings.ranking_order)
        hooks.play_started.fill(progress.play_started)
        hooks.unconfirmed_sheets.fill(progress.unconfirmed_tables)
        hooks.deals_entered.fill(progress.deals_entered)
        hooks.tables_with_deals.fill(lists.tables_with_deals)
