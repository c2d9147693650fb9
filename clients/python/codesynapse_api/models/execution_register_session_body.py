from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="ExecutionRegisterSessionBody")


@_attrs_define
class ExecutionRegisterSessionBody:
    """
    Attributes:
        session_id (str): The chat thread's primary session ID, chosen by the runtime: 1-128 characters of A-Z a-z 0-9 .
            _ : -.
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

        execution_register_session_body = cls(
            session_id=session_id,
        )

        return execution_register_session_body
