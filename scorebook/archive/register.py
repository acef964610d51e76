"""The register of text: every field of every model that can hold text (characters, JSON,
files, bytes, addresses), each classified once, here, with the reason.

- ``rewrite``: free text that may name a person (a reason typed by a director, a file's
  name, a stored preview, the audit log's before and after). The erasure rewrites each of
  the person's names in it (any case, any separator: ``archive.names``) to the pseudonym,
  in the rows of the erased player's club (``club``: the lookup from a row to its club),
  or in every row when the rows are no club's (``club=None``).
- ``pseudonym``: the player's name itself, replaced whole by "Erased player #n".
- ``account``: the person's own account and what hangs on it (username, email, names,
  login records): blanked, or the rows deleted, with the account.
- ``session``: signed-in state, stored encoded: each session is decoded, rewritten as
  free text, and encoded again.
- ``drop``: bytes kept a short while that cannot be rewritten (an uploaded workbook is a
  ZIP): the erasure drops them in the club's rows (an import's file still being
  checked: the check is stopped, in words, and the director uploads it again).
- ``not personal``: the reason says why the field cannot name a person (an engine's key,
  a number, an id, a hash, a token, a choice from a list).

``tests/archive/test_register.py`` walks ``apps.get_models()`` and fails when a model has
a text field this register does not classify (or classifies a field that is gone): a new
field is classified before it ships. The erasure (``archive.services``) rewrites what the
register says and nothing else; a dump of the whole database after an erasure holds the
name nowhere (``tests/archive/test_erasure_total.py``, SQLite and PostgreSQL).

Models are named by label, not imported: the register reaches every app without an
import pointing up the layers.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from django.apps import apps
from django.db import models

REWRITE = "rewrite"
PSEUDONYM = "pseudonym"
ACCOUNT = "account"
SESSION = "session"
DROP = "drop"
NOT_PERSONAL = "not personal"
HOW = (REWRITE, PSEUDONYM, ACCOUNT, SESSION, DROP, NOT_PERSONAL)

#: The fields that can hold text (EmailField, SlugField, URLField are CharFields).
TEXT_FIELDS = (
    models.CharField,
    models.TextField,
    models.JSONField,
    models.FileField,
    models.BinaryField,
    models.GenericIPAddressField,
)


@dataclass(frozen=True)
class Text:
    how: str
    why: str

    @property
    def personal(self) -> bool:
        return self.how != NOT_PERSONAL


def rewrite(why: str) -> Text:
    return Text(REWRITE, why)


def account(why: str) -> Text:
    return Text(ACCOUNT, why)


def no(why: str) -> Text:
    return Text(NOT_PERSONAL, why)


@dataclass(frozen=True)
class Texts:
    """A model's text fields. ``club``: the lookup from a row to the id of its club (what
    an erasure in one club rewrites); None: the rows are no club's."""

    fields: dict[str, Text]
    club: str | None = None


_ENGINE = "the engine's own keys and values (seats, sides, cards, numbers, contracts)"
_CHOICE = "one of a fixed list of choices"

REGISTER: dict[str, Texts] = {
    # -- Django's own and the libraries' -----------------------------------------------------
    "admin.LogEntry": Texts(
        {
            "object_id": no("the id of the object changed"),
            "object_repr": rewrite("the object's name when the admin changed it: a player's name"),
            "change_message": rewrite("the admin's words on the change (field names, values)"),
        }
    ),
    "auth.Permission": Texts(
        {"name": no("a permission's label, made by Django"), "codename": no("a code Django makes")}
    ),
    "auth.Group": Texts({"name": no("a group of permissions the site's staff names")}),
    "auth.User": Texts(
        {
            "password": no("a one-way hash (made unusable when the account is erased)"),
            "username": account("the account's name: becomes erased-<id>"),
            "first_name": account("blanked with the account"),
            "last_name": account("blanked with the account"),
            "email": account("blanked with the account"),
        }
    ),
    "contenttypes.ContentType": Texts(
        {"app_label": no("a code Django makes"), "model": no("a code Django makes")}
    ),
    "sessions.Session": Texts(
        {
            "session_key": no("a random key"),
            "session_data": Text(
                SESSION,
                "signed-in state (an account's sessions are deleted with it; a page's "
                "message waiting in another session is rewritten)",
            ),
        }
    ),
    "authtoken.Token": Texts({"key": no("a random secret (deleted with the account)")}),
    "axes.AccessAttempt": Texts(
        {
            "user_agent": account("a login's device: deleted with the account's login records"),
            "ip_address": account("a login's address: deleted with the account's records"),
            "username": account("the name typed to log in: the account's rows are deleted"),
            "http_accept": account("deleted with the account's login records"),
            "path_info": account("deleted with the account's login records"),
            "get_data": account("deleted with the account's login records"),
            "post_data": account("the login form (password masked): deleted with the account's"),
        }
    ),
    "axes.AccessFailureLog": Texts(
        {
            "user_agent": account("deleted with the account's login records"),
            "ip_address": account("deleted with the account's login records"),
            "username": account("the name typed to log in: the account's rows are deleted"),
            "http_accept": account("deleted with the account's login records"),
            "path_info": account("deleted with the account's login records"),
        }
    ),
    "axes.AccessLog": Texts(
        {
            "user_agent": account("deleted with the account's login records"),
            "ip_address": account("deleted with the account's login records"),
            "username": account("the name typed to log in: the account's rows are deleted"),
            "http_accept": account("deleted with the account's login records"),
            "path_info": account("deleted with the account's login records"),
            "session_hash": no("a hash of a session key"),
        }
    ),
    # -- core ----------------------------------------------------------------------------------
    "core.AuditEvent": Texts(
        {
            "verb": no("a code (player_changed, import_done...)"),
            "object_type": no("a model's name"),
            "object_id": no("the id of the object acted on"),
            "before": rewrite("the values before a change: a player's old name, a reason"),
            "after": rewrite("the values after a change: names, pairs, a file's name"),
            "reason": rewrite("the reason typed with the act"),
        },
        club="club",
    ),
    "core.IdempotencyKey": Texts(
        {
            "key": no("the client's retry token (rewriting it would make a retry write twice)"),
            "method": no("an HTTP method"),
            "path": no("the request's path: ids and the club's address"),
            "body_hash": no("a hash of the request's body"),
            "response": rewrite("the stored answer replayed on a retry: names, reasons"),
            "headers": rewrite("the stored answer's headers (ETag, Location)"),
        },
        # every row: a stored answer has no club, is kept for ever, and a former member's
        # answers name the club's players too (over-rewriting a retry cache beats a leak)
    ),
    # -- clubs ---------------------------------------------------------------------------------
    "clubs.Club": Texts(
        {
            "name": no(
                "the club's own name, its owner's to choose: erasing a member does not rename "
                "the club (docs/export.md)"
            ),
            "slug": no("the club's address (links and calendars point at it)"),
            "confirmation_policy": no(_CHOICE),
            "time_zone": no("a time zone's name"),
        }
    ),
    "clubs.Membership": Texts({"role": no(_CHOICE)}),
    "clubs.Player": Texts(
        {"name": Text(PSEUDONYM, "the name at the tables: becomes 'Erased player #n'")}
    ),
    "clubs.Invitation": Texts({"role": no(_CHOICE), "token": no("a random secret")}),
    # -- matches -------------------------------------------------------------------------------
    "matches.Night": Texts(
        {"venue": rewrite("typed by a director: 'at Nino's'"), "status": no(_CHOICE)},
        club="club",
    ),
    "matches.Table": Texts(
        {"name": rewrite("typed by a director: 'Nino's table'")}, club="night__club"
    ),
    "matches.Match": Texts(
        {
            "game": no("the engine's key of a game"),
            "rules": no(_ENGINE + ": the house rules as resolved"),
            "seats": no("seat -> player id"),
            "first_dealer": no("a seat's letter"),
            "stake_currency": no("a currency code"),
            "stake_unit": no(_CHOICE),
            "status": no(_CHOICE),
            "ended_reason": rewrite(
                "why it was abandoned, typed by a director (a forfeit, the import's "
                "'abandoned' column, a tournament's forfeit or cancel)"
            ),
            "state": no(_ENGINE + ": the running state (rewriting it would break the record)"),
            "result": no(_ENGINE + ": the outcome"),
            "final_score": no("side or seat -> points"),
            "final_winner": no("a seat or side"),
        },
        club="night__club",
    ),
    "matches.Deal": Texts(
        {
            "input": no(
                _ENGINE + ": the deal as entered; unknown fields and values are refused "
                "(rules/parse.py), so it holds no free text"
            ),
            "level": no(_CHOICE),
            "result": no(_ENGINE + ": the deal's score"),
            "entered_side": no("the side or seat that entered it (A, N, P1...): a choice"),
            "client": rewrite("the device's user agent: a client may write anything there"),
            "reason": rewrite("a correction's reason, typed"),
        },
        club="match__night__club",
    ),
    "matches.SeatFact": Texts(
        {
            "seat": no("a seat's letter"),
            "side": no("a side or seat (A, N, P1...)"),
            "event": no(_ENGINE + ": an event's key"),
            "bid": no(_ENGINE + ": a contract's key"),
            "contract": no(_ENGINE + ": a contract's key"),
        }
    ),
    "matches.Confirmation": Texts(
        {
            "seat": no("a seat's letter"),
            "method": no(_CHOICE),
            "reason": rewrite("a director's override reason, typed"),
        },
        club="deal__match__night__club",
    ),
    # -- ledger --------------------------------------------------------------------------------
    "ledger.Account": Texts({"pot": no(_CHOICE)}),
    "ledger.Entry": Texts(
        {"kind": no(_CHOICE), "unit": no(_CHOICE), "currency": no("a currency code")}
    ),
    "ledger.Settlement": Texts({"nets": no("account id -> amount")}),
    "ledger.Transfer": Texts({"unit": no(_CHOICE), "currency": no("a currency code")}),
    # -- standings -----------------------------------------------------------------------------
    "standings.Season": Texts({"name": rewrite("typed by a director: 'Coppa Nino'")}, club="club"),
    "standings.LeaderboardRow": Texts(
        {
            "game": no("the engine's key of a game"),
            "money": no("currency -> amount"),
            "events": no(_ENGINE + ": event -> count"),
            "bids": no(_ENGINE + ": contract -> count"),
        }
    ),
    "standings.MatchStanding": Texts(
        {"game": no("the engine's key of a game"), "players": no("player id -> numbers")}
    ),
    "standings.Rating": Texts({"game": no("the engine's key of a game")}),
    "standings.RatedMatch": Texts(
        {
            "game": no("the engine's key of a game"),
            "fingerprint": no("a hash of the match's facts"),
            "carry": no("numbers carried to the next rating"),
        }
    ),
    "standings.RatingChange": Texts({"game": no("the engine's key of a game")}),
    "standings.League": Texts(
        {
            "name": rewrite("typed by a director: 'Coppa Nino'"),
            "kind": no(_CHOICE),
            "game": no("the engine's key of a game"),
            "tiebreaks": no("a list of tie-break codes"),
            "withdrawals": no(_CHOICE),
            "format": no(_CHOICE),
            "seeding": no(_CHOICE),
            "series": no(_CHOICE),
        },
        club="club",
    ),
    "standings.LeagueEntry": Texts(
        {"name": rewrite("an entry's name, made of its players' names or typed")},
        club="league__club",
    ),
    "standings.FixtureForfeit": Texts(
        {"reason": rewrite("why the fixture was lost a tavolino, typed by a director")},
        club="fixture__league__club",
    ),
    # -- history -------------------------------------------------------------------------------
    "history.Import": Texts(
        {
            "filename": rewrite("the uploaded file's name: 'zebulon_quixote.csv'"),
            "file_hash": no("a hash of the file"),
            "status": no(_CHOICE),
            "plan": rewrite("the stored preview: the file's names, seats, reasons, problems"),
            "summary": rewrite("the preview in numbers, with the names it matched or adds"),
            "upload": Text(
                DROP,
                "the uploaded file, kept until its check has read it (seconds): a check in "
                "flight is stopped and the file dropped (history.services.checks_stop)",
            ),
            "guests": no("player ids"),
            "accounts": no("ledger account ids"),
            "error": rewrite("why the import stopped, in words that may name a player"),
        },
        club="club",
    ),
    "history.PlannedMatch": Texts(
        {"data": rewrite("a previewed match: its seats' names, its abandoned reason, its rows")},
        club="batch__club",
    ),
    "history.ImportedNight": Texts(
        {
            "fingerprint": no(
                "a hash of the night's rows (names lower-cased inside): it cannot be read back"
            )
        }
    ),
    # -- tournaments ---------------------------------------------------------------------------
    "tournaments.Tournament": Texts(
        {
            "name": rewrite("typed by a director: 'Coppa Nino'"),
            "game": no("the engine's key of a game"),
            "rules": no(_ENGINE + ": the house rules"),
            "format": no(_CHOICE),
            "seeding": no(_CHOICE),
            "series": no(_CHOICE),
            "tiebreaks": no("a list of tie-break codes"),
            "currency": no("a currency code"),
            "prize_kind": no(_CHOICE),
            "prizes": no("places -> shares"),
            "status": no(_CHOICE),
        },
        club="club",
    ),
    "tournaments.Entry": Texts(
        {
            "name": rewrite("a pair's name, made of its players' names or typed"),
            "withdrawal_reason": rewrite("why the pair left, typed by a director"),
        },
        club="tournament__club",
    ),
    "tournaments.Draw": Texts({"pairs": no("pairs of player ids")}),
    "tournaments.Round": Texts({"stage": no(_CHOICE)}),
    "tournaments.Pairing": Texts(
        {"forfeit_reason": rewrite("why a pair forfeited, typed by a director")},
        club="round__tournament__club",
    ),
    # -- federations ---------------------------------------------------------------------------
    "federations.Federation": Texts(
        {
            "name": no(
                "the federation's own name, its president's to choose (as a club's name: "
                "docs/federation.md)"
            ),
            "slug": no("the federation's address (links point at it)"),
            "level": no(_CHOICE),
        }
    ),
    "federations.Officer": Texts({"role": no(_CHOICE)}),
    "federations.ClubInvitation": Texts({"status": no(_CHOICE)}),
    "federations.PersonLink": Texts(
        {
            "origin": no(_CHOICE),
            "status": no(_CHOICE),
        }
        # no text, but the rows join an account to a player: an erasure deletes the
        # player's links, an account's erasure every link of the account
        # (federations.erasure)
    ),
    "federations.FederationRating": Texts({"game": no("the engine's key of a game")}),
    "federations.FederalTournament": Texts(
        {
            "name": no("a federal tournament's name, the federation's own (as its name)"),
            "level": no(_CHOICE),
            "game": no("the engine's key of a game"),
            "rules": no(_ENGINE + ": the house rules"),
            "format": no(_CHOICE),
            "currency": no("a currency code"),
            "status": no(_CHOICE),
            "cancel_reason": no("why an officer called it off: the federation's own words"),
        }
    ),
    "federations.FederalRegistration": Texts(
        {"status": no(_CHOICE)}
        # no text: the rows name two accounts, deleted with an erased account (cascade
        # when the account goes; federations.erasure when it is stripped)
    ),
    "federations.Championship": Texts(
        {
            "name": no("the championship's name, its officers' to choose (as a league's)"),
            "season": no("a season's label, '2026/27'"),
            "game": no("an engine's key"),
            "rules": no("house rules: the engine's switches and values"),
            "format": no(_CHOICE),
            "status": no(_CHOICE),
        }
    ),
    "federations.Team": Texts(
        {
            "name": rewrite("a team's name, typed by a director: it may be its players'"),
            "withdrawal": no(_CHOICE),
            "withdrawal_reason": rewrite("why the team withdrew, typed by an officer"),
        },
        club="club",
    ),
    "federations.ChampionshipFixture": Texts(
        {
            "stage": no(_CHOICE),
            "status": no(_CHOICE),
            "confirmed_result": no("tables won and game points, numbers"),
            "reason": rewrite("why a fixture was moved or forfeited, typed by an officer"),
        }
    ),
    "federations.FixtureTable": Texts(
        {
            "home_players": no("player ids"),
            "away_players": no("player ids"),
            "away_seats": no("seat names of the engine"),
        }
    ),
    # -- sharing, web ----------------------------------------------------------------------------
    "sharing.CalendarFeed": Texts(
        {"token": no("a random secret"), "language": no("a language code")}
    ),
    "web.TablePin": Texts({"pin_hash": no("a one-way hash (deleted with the account)")}),
}


def text_fields(model: type[models.Model]) -> list[str]:
    """The names of ``model``'s stored fields that can hold text."""
    return [f.name for f in model._meta.concrete_fields if isinstance(f, TEXT_FIELDS)]


def unclassified() -> list[str]:
    """``label.field`` of every stored text field of every installed model the register
    does not classify, and of every register entry naming a field or model that is gone
    (a proxy's fields are its concrete model's)."""
    missing: list[str] = []
    seen: set[str] = set()
    for model in apps.get_models(include_auto_created=True):
        if model._meta.proxy:
            continue
        label = model._meta.label
        seen.add(label)
        known = REGISTER.get(label, Texts({})).fields
        present = text_fields(model)
        missing += [f"{label}.{name}" for name in present if name not in known]
        missing += [f"{label}.{name} (gone)" for name in known if name not in present]
    missing += [f"{label} (gone)" for label in REGISTER if label not in seen]
    return missing


def rewritten(
    how: str = REWRITE,
) -> Iterator[tuple[type[models.Model], tuple[str, ...], str | None]]:
    """(model, its fields classified ``how``, the lookup to its club) for every model
    that has such fields."""
    for label, texts in REGISTER.items():
        names = tuple(name for name, text in texts.fields.items() if text.how == how)
        if names:
            yield apps.get_model(label), names, texts.club
