from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.session_memory_offload_body_turns_item import (
        SessionMemoryOffloadBodyTurnsItem,
    )


T = TypeVar("T", bound="SessionMemoryOffloadBody")


@_attrs_define
class SessionMemoryOffloadBody:
    """
    Attributes:
        turns (list[SessionMemoryOffloadBodyTurnsItem]): Turns like {"role": "user", "content": "...", "id": "turn-41"}
            (id optional).
    """

    turns: list[SessionMemoryOffloadBodyTurnsItem]

    def to_dict(self) -> dict[str, Any]:
        turns = []
        for turns_item_data in self.turns:
            turns_item = turns_item_data.to_dict()
            turns.append(turns_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "turns": turns,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.session_memory_offload_body_turns_item import (
            SessionMemoryOffloadBodyTurnsItem,
        )

        d = dict(src_dict)
        turns = []
        _turns = d.pop("turns")
        for turns_item_data in _turns:
            turns_item = SessionMemoryOffloadBodyTurnsItem.from_dict(turns_item_data)

            turns.append(turns_item)

        session_memory_offload_body = cls(
            turns=turns,
        )

        return session_memory_offload_body
