from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="RepositoryMemoryForgetSessionBody")


@_attrs_define
class RepositoryMemoryForgetSessionBody:
    """
    Attributes:
        session_id (str): The session whose durable writes to forget (an origin_session_id).
    """

    session_id: str

    def to_dict(self) -> dict[str, Any]:
        session_id = self.session_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "session_id": session_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        session_id = d.pop("session_id")

        repository_memory_forget_session_body = cls(
            session_id=session_id,
        )

        return repository_memory_forget_session_body
