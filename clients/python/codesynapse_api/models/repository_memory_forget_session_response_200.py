from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.repository_memory_forget_session_response_200_scope import (
    RepositoryMemoryForgetSessionResponse200Scope,
    check_repository_memory_forget_session_response_200_scope,
)

if TYPE_CHECKING:
    from ..models.repository_memory_forget_session_response_200_stores_item import (
        RepositoryMemoryForgetSessionResponse200StoresItem,
    )


T = TypeVar("T", bound="RepositoryMemoryForgetSessionResponse200")


@_attrs_define
class RepositoryMemoryForgetSessionResponse200:
    """
    Attributes:
        scope (RepositoryMemoryForgetSessionResponse200Scope):
        session_id (str):
        stores (list[RepositoryMemoryForgetSessionResponse200StoresItem]):
        done (bool):
    """

    scope: RepositoryMemoryForgetSessionResponse200Scope
    session_id: str
    stores: list[RepositoryMemoryForgetSessionResponse200StoresItem]
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
        from ..models.repository_memory_forget_session_response_200_stores_item import (
            RepositoryMemoryForgetSessionResponse200StoresItem,
        )

        d = dict(src_dict)
        scope = check_repository_memory_forget_session_response_200_scope(
            d.pop("scope")
        )

        session_id = d.pop("session_id")

        stores = []
        _stores = d.pop("stores")
        for stores_item_data in _stores:
            stores_item = RepositoryMemoryForgetSessionResponse200StoresItem.from_dict(
                stores_item_data
            )

            stores.append(stores_item)

        done = d.pop("done")

        repository_memory_forget_session_response_200 = cls(
            scope=scope,
            session_id=session_id,
            stores=stores,
            done=done,
        )

        return repository_memory_forget_session_response_200
