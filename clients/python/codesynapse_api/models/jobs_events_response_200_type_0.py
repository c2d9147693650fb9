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

T = TypeVar("T", bound="JobsEventsResponse200Type0")


@_attrs_define
class JobsEventsResponse200Type0:
    """The job, as GET /api/v1/jobs/{id} answers it.

    Attributes:
        event (Literal['status']):
        data (str):
        id (str | Unset):
    """

    event: Literal["status"]
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
        event = cast(Literal["status"], d.pop("event"))
        if event != "status":
            raise ValueError(f"event must match const 'status', got '{event}'")

        data = d.pop("data")

        id = d.pop("id", UNSET)

        jobs_events_response_200_type_0 = cls(
            event=event,
            data=data,
            id=id,
        )

        jobs_events_response_200_type_0.additional_properties = d
        return jobs_events_response_200_type_0

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
