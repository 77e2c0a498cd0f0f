"""The Skatordnung's sections 3-5, for a referee's decision to cite (4.5.10).

Built from the headings and paragraph numbers of the reference text
(shared/reference/000_*.txt; tests/referees/test_paragraphs.py checks it against the file):
each paragraph is offered with its section's title and the opening words of its text, so a
referee picks "4.1.4" knowing what it says. No Django model: a constant the forms choose from.
"""

from __future__ import annotations

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

#: Sections 3-5 and their subsections, with the headings of the book.
SECTIONS: dict[str, str] = {
    "3": _("Preliminaries"),
    "3.1": _("Seating"),
    "3.2": _("The deal"),
    "3.3": _("The auction"),
    "3.4": _("Game announcement"),
    "3.5": _("The parties"),
    "4": _("The play"),
    "4.1": _("The lead"),
    "4.2": _("Following suit"),
    "4.3": _("Claims and concessions"),
    "4.4": _("Tricks"),
    "4.5": _("Behaviour"),
    "5": _("Game valuation"),
    "5.1": _("Base values"),
    "5.2": _("Multipliers"),
    "5.3": _("Scoring"),
    "5.4": _("Overbidding"),
    "5.5": _("The scoresheet"),
    "5.6": _("Game valuations"),
}

#: Every numbered paragraph of sections 3-5 with the opening words of its text.
PARAGRAPHS: dict[str, str] = {
    "3.1.1": "Seats may be drawn for if not predetermined. Whoever draws highest has …",
    "3.1.2": "A new player may join in only by agreement of the others and only at …",
    "3.2.1": "The player in Seat 1 deals first, and the turn to deal rotates to the …",
    "3.2.2": "The dealer must shuffle the cards thoroughly, have them cut once by his …",
    "3.2.3": "If the dealer exposes a card face while shuffling, however briefly, he …",
    "3.2.4": "The cut is compulsory, and there must be at least four cards in each …",
    "3.2.5": "If, when more than three are playing, the player to the right of the …",
    "3.2.6": "The dealer deals to the left in the following way: three to each active …",
    "3.2.7": "When there are more than three at a table the dealer receives no cards. …",
    "3.2.8": "If any card is exposed during the deal there must be a re-deal …",
    "3.2.9": "If anyone receives a wrong number of cards there must be a redeal …",
    "3.2.10": "No complaint about an irregularity in the shuffle, cut or deal may be …",
    "3.2.11": "If a player deals out of turn, any resultant game is invalid, even if …",
    "3.2.12": "If a player deals out of turn before the end of a round, all games …",
    "3.2.13": "If a deal out of turn is discovered to have been made in a previous …",
    "3.2.14": "If anyone examines, exposes or picks the skat up during or after a …",
    "3.2.15": "It is an offence to examine, expose or pick up the skat during the …",
    "3.2.16": "Every valid deal must be followed by a valid game. A game in which …",
    "3.3.1": "The deal is followed by an auction to establish the soloist and his …",
    "3.3.2": "Forehand begins by inviting Middlehand to start bidding against him. …",
    "3.3.3": "To each bid made by Middlehand, Forehand says 'Yes' if he is willing to …",
    "3.3.4": "When one of them passes, Rearhand enters the auction and may pass or …",
    "3.3.5": "Whoever makes or accepts the highest bid becomes the soloist.",
    "3.3.6": "If Middlehand and Rearhand both pass without bidding, Forehand may play …",
    "3.3.7": "If all three players pass, the cards are gathered and passed to the …",
    "3.3.8": "Any pass, bid, or acceptance of a bid is irrevocable (except as …",
    "3.3.9": "If a player takes or examines the skat before the end of the auction …",
    "3.3.10": "If anyone wishes to play despite the fact that the skat has been seen …",
    "3.4.1": "The soloist may only announce a valid game (3.4.4, 3.4.7), which in the …",
    "3.4.2": "The soloist is free to announce any game whose value is not less than …",
    "3.4.3": "If the soloist takes the skat and finds it contains a top trump whose …",
    "3.4.4": "A game announcement is invalid if it manifestly contravenes the basic …",
    "3.4.5": "An incorrect announcement may be corrected immediately without penalty …",
    "3.4.6": "Any game announcement made when the soloist holds more or fewer than …",
    "3.4.7": "A valid game announcement is irrevocable.",
    "3.4.8": "Having once made a valid game announcement, the soloist may not change …",
    "3.5.1": "The three active players form two parties: the soloist on one hand, and …",
    "3.5.2": "Each opponent is equally responsible for the success or failure of them …",
    "3.5.3": "If playing for money, the soloist is paid for each game he wins by …",
    "3.5.4": "A participant who is not one of the active players may not observe more …",
    "4.1.1": "Play begins with the game announcement. After the announcement …",
    "4.1.2": "A card once played may not be taken back. If the offended party demand …",
    "4.1.3": "Leading out of turn ends the game. If the outcome has already been …",
    "4.1.4": "If anyone leads out of turn, or commits any other irregularity in play …",
    "4.1.5": "If an opponent commits an irregularity or concedes the game when the …",
    "4.1.6": "A defaulting party is obliged to continue play if the offended party …",
    "4.1.7": "If a card is played out of turn but this is not noticed until after …",
    "4.1.8": "Neither opponent may warn or prevent the other from playing out of turn …",
    "4.1.9": "If an opponent exposes two or more of his cards simultaneously, whether …",
    "4.1.10": "Playing out of turn to the last trick may be corrected without penalty.",
    "4.1.11": "Every player at the table, even if not active in the current deal, is …",
    "4.2.1": "The next active player to the left of the leader plays second to a …",
    "4.2.2": "A player who cannot follow suit may play any card.",
    "4.2.3": "If a player fails to follow suit although able to do so, a revoke is …",
    "4.2.4": "If a revoke is not discovered until later in the play, or when it is …",
    "4.2.5": "A revoke cannot be claimed once all the cards of both parties have been …",
    "4.2.6": "If, during the course of play following a correct deal, a player is …",
    "4.2.7": "No one may pull or play a card from his hand out of turn and in such a …",
    "4.2.8": "If any participant exposes or examines the skat during the play, the …",
    "4.2.9": "If any participant makes any comment or gesture that might influence …",
    "4.3.1": "Normally, every game must be played through to the end. The soloist …",
    "4.3.2": "Once the second trick has been led the soloist may concede only with …",
    "4.3.3": "If at least one opponent concedes defeat the game ends immediately.",
    "4.3.4": "If in a trump or grand game the soloist lays all his cards face up on …",
    "4.3.5": "If an opponent lays all his remaining cards face up on the table, it is …",
    "4.3.6": "If a player throws his cards in, the game ends, and he cannot claim any …",
    "4.4.1": "A trick consists of one card from each player and ends when the third …",
    "4.4.2": "The trick is taken by the highest card of the suit led or by the …",
    "4.4.3": "The trick must be gathered in such a way that every active player can …",
    "4.4.4": "Each trick won is to be stacked face down on the trick previously won …",
    "4.4.5": "If the soloist fails to gather one or more of his won tricks, it is to …",
    "4.4.6": "If any player exposes or examines a previous trick other than in …",
    "4.5.1": "The primary rule of all play is to adhere strictly to the Skatordnung …",
    "4.5.2": "Every player should behave in a fair, sportsmanlike and objective …",
    "4.5.3": "Cards should be dealt in such a way as to prevent their faces from …",
    "4.5.4": "Only the soloist may take or examine the skat. (See also 2.2.1, 3.3.9 …",
    "4.5.5": "Players must hold their cards in such a way that no other active player …",
    "4.5.6": "Each player must check that he has received the right number of cards …",
    "4.5.7": "Each party must gather its own tricks up.",
    "4.5.8": "No one may count the card-points or trumps out loud. (See 4.2.9.)",
    "4.5.9": "A player may not withdraw from the table in the middle of a round, only …",
    "4.5.10": "Any claim that a rule of the game or a tournament regulation has been …",
    "5.1.1": "Every suit and grand game has a base value, namely: diamonds 9, hearts …",
    "5.1.2": "Every null game has a invariable game value, namely Null 23, Null hand …",
    "5.2.1": "The game value of a suit or grand consists of its base value (5.1.1) …",
    "5.2.2": "The soloist wins a simple game if he takes ast least 61 card-points in …",
    "5.2.3": "A party is schneidered when it takes 30 or fewer card-points in tricks.",
    "5.2.4": "A party is schwarz when it fails to win any trick. (Winning one or more …",
    "5.2.5": "The multipliers for schneider and schwarz predicted count only if the …",
    "5.2.6": "The soloist may only play ouvert when playing from the hand and with …",
    "5.2.7": "The soloist wins a null game by losing every trick.",
    "5.2.8": "A party claiming credit for schneider or schwarz must, in the event of …",
    "5.3.1": "The score for a won or lost game is expressed in game-points. Apart …",
    "5.3.2": "The relevant number of multipliers always includes the number of tops …",
    "5.3.3": "Only the absolute number of tops count: it makes no difference whether …",
    "5.3.4": "The score or payment for a lost game, whether played with the skat or …",
    "5.4.1": "A game is overbid if the skat contains a top trump whose effect is to …",
    "5.4.2": "The conditions of 5.4.1 apply even if the game was played from the hand …",
    "5.4.3": "If the soloist needs to win at a higher level (schneider or schwarz) to …",
    "5.5.1": "Every game (other than one that was passed out) is to be recorded as a …",
    "5.5.2": "In tournament play a record must also be kept of the base value of each …",
    "5.5.3": "Any correction to a faulty entry may be made only with the agreement of …",
    "5.5.4": "If the game is played for money the stakes must be agreed beforehand. …",
    "5.5.5": "At the end of the last round final settlements may be computed from …",
    "5.6.1": "table of game values",
}


def section_of(paragraph: str) -> str:
    """ "4.1.4" -> "4.1"."""
    return paragraph.rsplit(".", 1)[0]


def choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """Grouped choices for a form: one group per subsection, "4.1 The lead".

    The opening words are those of the English edition the office quotes; a reader in
    another language gets each paragraph with its subsection's heading in his language
    ("4.1.4 · Das Ausspielen") rather than an English sentence in a German list."""
    english = (get_language() or "en").startswith("en")
    groups: dict[str, list[tuple[str, str]]] = {}
    for number, opening in PARAGRAPHS.items():
        section = section_of(number)
        text = f"{number} {opening}" if english else f"{number} · {SECTIONS[section]}"
        groups.setdefault(section, []).append((number, text))
    return [(f"{section} {SECTIONS[section]}", items) for section, items in groups.items()]


def label(paragraph: str) -> str:
    """ "4.1.4 (The lead)" for lists and the CSV export; the number alone if unknown."""
    title = SECTIONS.get(section_of(paragraph))
    return f"{paragraph} ({title})" if title else paragraph
