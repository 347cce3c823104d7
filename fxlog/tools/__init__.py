"""Rule-governed tool calling: requests, receipts and the host loop."""
