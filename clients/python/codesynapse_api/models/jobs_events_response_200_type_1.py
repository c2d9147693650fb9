from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field
from typing_extensions import Self

from ..types import UNSET, Unset

T = TypeVar("T", bound="JobsEventsResponse200Type1")


@_attrs_define
class JobsEventsResponse200Type1:
    """After a terminal status: nothing more will come.

    Attributes:
        event (Literal['end']):
        data (str):
        id (str | Unset):
    """

    event: Literal["end"]
    data: str
    id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event = self.event

        data = self.data

        id = self.id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event": event,
                "data": data,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        event = cast(Literal["end"], d.pop("event"))
        if event != "end":
            raise ValueError(f"event must match const 'end', got '{event}'")

        data = d.pop("data")

        id = d.pop("id", UNSET)

        jobs_events_response_200_type_1 = cls(
            event=event,
            data=data,
            id=id,
        )

        jobs_events_response_200_type_1.additional_properties = d
        return jobs_events_response_200_type_1

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
