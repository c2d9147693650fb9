from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

T = TypeVar("T", bound="SessionMemoryReadResponse200Extraction")


@_attrs_define
class SessionMemoryReadResponse200Extraction:
    """
    Attributes:
        offloads (int): Offload calls processed.
        turns (int):
        statements (int): Durable statements the extractor found.
        stored (int): Statements stored as new facts.
        repeats (int): Statements that repeated a stored one (no new fact).
        superseded (int): Facts a correction or a new value replaced (kept in history).
        dropped (int): Extracted facts dropped to keep the namespace within its limits.
        shortened (int): Statements cut to fit the namespace's size.
        last_at (str | Unset): When extraction last wrote (ISO 8601).
    """

    offloads: int
    turns: int
    statements: int
    stored: int
    repeats: int
    superseded: int
    dropped: int
    shortened: int
    last_at: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        offloads = self.offloads

        turns = self.turns

        statements = self.statements

        stored = self.stored

        repeats = self.repeats

        superseded = self.superseded

        dropped = self.dropped

        shortened = self.shortened

        last_at = self.last_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "offloads": offloads,
                "turns": turns,
                "statements": statements,
                "stored": stored,
                "repeats": repeats,
                "superseded": superseded,
                "dropped": dropped,
                "shortened": shortened,
            }
        )
        if last_at is not UNSET:
            field_dict["last_at"] = last_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        offloads = d.pop("offloads")

        turns = d.pop("turns")

        statements = d.pop("statements")

        stored = d.pop("stored")

        repeats = d.pop("repeats")

        superseded = d.pop("superseded")

        dropped = d.pop("dropped")

        shortened = d.pop("shortened")

        last_at = d.pop("last_at", UNSET)

        session_memory_read_response_200_extraction = cls(
            offloads=offloads,
            turns=turns,
            statements=statements,
            stored=stored,
            repeats=repeats,
            superseded=superseded,
            dropped=dropped,
            shortened=shortened,
            last_at=last_at,
        )

        return session_memory_read_response_200_extraction
