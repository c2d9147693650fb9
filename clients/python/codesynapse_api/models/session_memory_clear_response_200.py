from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.session_memory_clear_response_200_scope import (
    SessionMemoryClearResponse200Scope,
    check_session_memory_clear_response_200_scope,
)

if TYPE_CHECKING:
    from ..models.session_memory_clear_response_200_stores_item import (
        SessionMemoryClearResponse200StoresItem,
    )


T = TypeVar("T", bound="SessionMemoryClearResponse200")


@_attrs_define
class SessionMemoryClearResponse200:
    """
    Attributes:
        scope (SessionMemoryClearResponse200Scope):
        session_id (str):
        stores (list[SessionMemoryClearResponse200StoresItem]):
        done (bool):
    """

    scope: SessionMemoryClearResponse200Scope
    session_id: str
    stores: list[SessionMemoryClearResponse200StoresItem]
    done: bool

    def to_dict(self) -> dict[str, Any]:
        scope: str = self.scope

        session_id = self.session_id

        stores = []
        for stores_item_data in self.stores:
            stores_item = stores_item_data.to_dict()
            stores.append(stores_item)

        done = self.done

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "scope": scope,
                "session_id": session_id,
                "stores": stores,
                "done": done,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.session_memory_clear_response_200_stores_item import (
            SessionMemoryClearResponse200StoresItem,
        )

        d = dict(src_dict)
        scope = check_session_memory_clear_response_200_scope(d.pop("scope"))

        session_id = d.pop("session_id")

        stores = []
        _stores = d.pop("stores")
        for stores_item_data in _stores:
            stores_item = SessionMemoryClearResponse200StoresItem.from_dict(
                stores_item_data
            )

            stores.append(stores_item)

        done = d.pop("done")

        session_memory_clear_response_200 = cls(
            scope=scope,
            session_id=session_id,
            stores=stores,
            done=done,
        )

        return session_memory_clear_response_200
