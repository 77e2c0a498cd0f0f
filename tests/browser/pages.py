"""What a user does on the pages, shared by the browser tests: log in, enter a deal on the
phone, confirm the sheet with a seat's PIN."""

from __future__ import annotations


def log_in(page, base: str, username: str, password: str = "pw") -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("form button[type=submit]")


def enter(phone, declarer: str, contract: str, **fields) -> None:
    """Tap a deal into the entry form: declarer and contract pills, then the fields."""
    phone.locator("#id_declarer_seat label", has_text=declarer).click()
    phone.locator("#id_contract label", has_text=contract).click()
    for name, value in fields.items():
        if value is True:
            phone.locator(".flags label", has_text=name.replace("_", " ").capitalize()).click()
        elif name == "bid":
            phone.select_option("#id_bid", str(value))
        else:
            phone.fill(f"#id_{name}", str(value))
    phone.click("button.enter")


def confirm(phone, player: str, pin: str) -> None:
    """One player confirms the sheet on the phone with the PIN from his own slip (5.5.3)."""
    phone.locator(".pin-form label", has_text=player).click()
    phone.fill("input[name=pin]", pin)
    phone.click("text=Confirm the sheet")


def correct_card_points(page, points: int, reason: str) -> None:
    """On a game's correction page: change the declarer's card points, give the reason, save."""
    page.fill("#id_declarer_points", str(points))
    page.fill("#id_reason", reason)
    page.click("text=Save correction")
