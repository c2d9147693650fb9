from typing import Literal

AdminJobChartsWindowType1 = Literal["1h", "24h"]

ADMIN_JOB_CHARTS_WINDOW_TYPE_1_VALUES: set[AdminJobChartsWindowType1] = {
    "1h",
    "24h",
}


def check_admin_job_charts_window_type_1(value: str) -> AdminJobChartsWindowType1:
    if value in ADMIN_JOB_CHARTS_WINDOW_TYPE_1_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_JOB_CHARTS_WINDOW_TYPE_1_VALUES!r}"
    )
