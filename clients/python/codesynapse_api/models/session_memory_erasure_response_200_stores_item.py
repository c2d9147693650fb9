from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.session_memory_erasure_response_200_stores_item_status import (
    SessionMemoryErasureResponse200StoresItemStatus,
    check_session_memory_erasure_response_200_stores_item_status,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="SessionMemoryErasureResponse200StoresItem")


@_attrs_define
class SessionMemoryErasureResponse200StoresItem:
    """
    Attributes:
        store (str):
        entities (int):
        facts (int):
        history (int):
        status (SessionMemoryErasureResponse200StoresItemStatus):
        rows (int | Unset): Relational stores (jobs:results, jobs:idempotency): rows erased.
    """

    store: str
    entities: int
    facts: int
    history: int
    status: SessionMemoryErasureResponse200StoresItemStatus
    rows: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        store = self.store

        entities = self.entities

        facts = self.facts

        history = self.history

        status: str = self.status

        rows = self.rows

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "store": store,
                "entities": entities,
                "facts": facts,
                "history": history,
                "status": status,
            }
        )
        if rows is not UNSET:
            field_dict["rows"] = rows

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        store = d.pop("store")

        entities = d.pop("entities")

        facts = d.pop("facts")

        history = d.pop("history")

        status = check_session_memory_erasure_response_200_stores_item_status(
            d.pop("status")
        )

        rows = d.pop("rows", UNSET)

        session_memory_erasure_response_200_stores_item = cls(
            store=store,
            entities=entities,
            facts=facts,
            history=history,
            status=status,
            rows=rows,
        )

        return session_memory_erasure_response_200_stores_item
