from django.apps import AppConfig


class RefereesConfig(AppConfig):
    name = "referees"

    def ready(self) -> None:
        # Fill the hooks the apps below declare (docs, "Layout"): they never import referees.
        from scoring import hooks as scoring_hooks
        from tournaments import hooks as tournaments_hooks

        from . import corrections, panels, permissions

        scoring_hooks.correction_reason.fill(corrections.latest_reason)
        scoring_hooks.corrected.fill(corrections.corrected)
        tournaments_hooks.front_page_panels.fill(panels.front_page_from_referees)
        tournaments_hooks.reads_results.fill(permissions.is_referee)
        tournaments_hooks.types_paper_lists.fill(permissions.is_referee)
