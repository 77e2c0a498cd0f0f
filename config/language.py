"""``/lang/<code>/?next=PAGE``: the language switch as a link, the same for every visitor.

The switch in every page's top bar was a POST form with a CSRF token, so every public
page set a CSRF cookie and was personal: the spectators' admission (config.admission)
could never give the crowd a copy of the standings, and a hall of 3,000 spectators was
computed page by page (docs: Benchmarks). A link holds nothing of the visitor's. It sets
the language cookie Django's LocaleMiddleware reads, and goes back to the page it was
followed from when that page is on this office (never elsewhere: no open redirect).
Choosing a language is not a change an attacker gains anything by (the worst is a page
in the other language), which is why a GET may make it.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponseRedirect
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


@never_cache
@require_safe
def switch_language(request: HttpRequest, code: str) -> HttpResponseRedirect:
    """Set the language cookie to ``code`` (one of LANGUAGES, else 404) and go back to ``next``."""
    if code not in dict(settings.LANGUAGES):
        raise Http404("no such language")
    target = request.GET.get("next", "")
    here = {request.get_host()}
    if not url_has_allowed_host_and_scheme(target, allowed_hosts=here, require_https=request.is_secure()):
        target = "/"
    response = HttpResponseRedirect(target)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        translation.get_supported_language_variant(code),
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response
