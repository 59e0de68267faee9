"""Docs review, finding 7: who acts is ``--actor``, ``$USER``, the login name, or refused."""

from __future__ import annotations

import getpass

import pytest
import typer

from scoregate.cli.args import actor_name


def test_actor_falls_back_from_user_to_the_login_name(monkeypatch):
    monkeypatch.setenv("USER", "alice")
    assert actor_name(None) == "alice"
    assert actor_name("bob") == "bob"
    monkeypatch.delenv("USER")
    monkeypatch.setattr(getpass, "getuser", lambda: "carol")
    assert actor_name(None) == "carol"


@pytest.mark.parametrize("error", [KeyError("getpwuid(): uid not found: 1234"), OSError("none")])
def test_no_known_name_is_refused_asking_for_actor(monkeypatch, capsys, error):
    monkeypatch.delenv("USER", raising=False)

    def no_login() -> str:
        raise error

    monkeypatch.setattr(getpass, "getuser", no_login)
    with pytest.raises(typer.Exit) as stopped:
        actor_name(None)
    assert stopped.value.exit_code == 2
    said = " ".join(capsys.readouterr().err.split())
    assert "give --actor NAME" in said
    assert actor_name("dave") == "dave"  # --actor still works there
