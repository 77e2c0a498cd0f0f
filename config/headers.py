"""Headers every page gets: a Content-Security-Policy, and no-store for staff pages.

- **Content-Security-Policy** (:data:`config.settings.CONTENT_SECURITY_POLICY`): scripts,
  styles, images and requests only from the office itself, no inline script or style
  (``static/js/office.js`` does what ``onclick``/``onsubmit`` attributes did), no
  plugins, no framing, forms posting only to the office. Whatever text a name, a
  reason or an uploaded file smuggles into a page, the browser runs none of it.
- **Cache-Control: no-store** for every answer to a logged-in user: director,
  referee and admin pages (players, PINs on slips, disputes, exports) are never kept by
  a shared cache or the browser's disk cache, so the next user of a hall laptop cannot
  page back to them. Table links get the same from ``tablelink.links.CapabilityURLHeaders``.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers


class SecurityHeaders:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.setdefault("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            add_never_cache_headers(response)  # no-cache, no-store, must-revalidate, private
        return response
