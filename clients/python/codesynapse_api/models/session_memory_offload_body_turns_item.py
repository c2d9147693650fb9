from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.session_memory_offload_body_turns_item_role import (
    SessionMemoryOffloadBodyTurnsItemRole,
    check_session_memory_offload_body_turns_item_role,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="SessionMemoryOffloadBodyTurnsItem")


@_attrs_define
class SessionMemoryOffloadBodyTurnsItem:
    """
    Attributes:
        role (SessionMemoryOffloadBodyTurnsItemRole):
        content (str):
        id (str | Unset): The runtime's own ID for the turn (provenance only; never a session ID).
    """

    role: SessionMemoryOffloadBodyTurnsItemRole
    content: str
    id: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        role: str = self.role

        content = self.content

        id = self.id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "role": role,
                "content": content,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        role = check_session_memory_offload_body_turns_item_role(d.pop("role"))

        content = d.pop("content")

        id = d.pop("id", UNSET)

        session_memory_offload_body_turns_item = cls(
            role=role,
            content=content,
            id=id,
        )

        return session_memory_offload_body_turns_item
