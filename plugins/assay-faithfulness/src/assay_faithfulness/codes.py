"""Error codes this plugin raises (:class:`assay.AssayError` ``code`` values).

They are the evaluation runner's codes for the same problems, so a bad sample reads the same
whether a metric or the runner catches it. The values are public and never renamed.
"""

__all__ = [
    "INVALID_CONTEXTS",
    "INVALID_OPTION",
    "INVALID_SAMPLE",
    "INVALID_THRESHOLD",
    "MISSING_ANSWER",
    "UNKNOWN_METRIC",
]

MISSING_ANSWER = "MISSING_ANSWER"
"""A sample has no ``answer``, or it is not a string."""
INVALID_CONTEXTS = "INVALID_CONTEXTS"
"""A sample's ``contexts`` is not a list of strings (the path names the bad item)."""
INVALID_SAMPLE = "INVALID_SAMPLE"
"""A sample's ``question`` is not a string, or its ``ground_truth`` is not a string or None."""
INVALID_THRESHOLD = "INVALID_THRESHOLD"
"""A threshold is not a number in [0, 1]."""
INVALID_OPTION = "INVALID_OPTION"
"""A heuristic option is unknown or has the wrong type."""
UNKNOWN_METRIC = "UNKNOWN_METRIC"
"""A metric id names none of this plugin's metrics (standalone :func:`score_sample`)."""
