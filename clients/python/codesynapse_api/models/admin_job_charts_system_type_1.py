from typing import Literal

AdminJobChartsSystemType1 = Literal["0", "1"]

ADMIN_JOB_CHARTS_SYSTEM_TYPE_1_VALUES: set[AdminJobChartsSystemType1] = {
    "0",
    "1",
}


def check_admin_job_charts_system_type_1(value: str) -> AdminJobChartsSystemType1:
    if value in ADMIN_JOB_CHARTS_SYSTEM_TYPE_1_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_JOB_CHARTS_SYSTEM_TYPE_1_VALUES!r}"
    )
