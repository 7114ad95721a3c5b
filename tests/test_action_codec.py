"""The action codec's public face (skirmish.rules.actions, STYLE 3): the field a bare word fills in each verb's text
form, as the codec reads it, for the built-in verbs and those the rulesets register (the editor's renames read it)."""

from __future__ import annotations

import pytest

import skirmish.rulesets  # noqa: F401  (both rulesets: their verbs in the codec)
from skirmish.rules.actions import ACTION_TYPES, ActionParseError, parse_action, positional_field


@pytest.mark.parametrize(("verb", "field"), [
    ("shoot", "target"), ("move", "to"), ("declare", "speed"), ("wait", "trigger"), ("end", None),
    ("contest", "target"), ("mount", "mount"), ("dismount", None), ("defend", "skill"), ("intent", "act"),
    ("no_such_verb", None),
])
def test_the_positional_field_of_a_verb(verb: str, field: str | None) -> None:
    assert positional_field(verb) == field


def test_a_bare_word_fills_the_positional_field_and_a_verb_without_one_refuses_it() -> None:
    bare = {"shoot": "Kyr-2", "contest": "Kyr-2", "mount": "Bike", "intent": "shoot"}
    for verb, word in bare.items():
        field = positional_field(verb)
        assert field is not None
        assert getattr(parse_action(f"{verb} Sid {word}"), field) == word
    for verb in ACTION_TYPES:
        if positional_field(verb) is None:
            with pytest.raises(ActionParseError, match="unexpected"):
                parse_action(f"{verb} Sid word")
