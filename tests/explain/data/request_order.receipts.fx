// fxlog receipts v1
fetch(d1)[tool#started -> "2026-11-30T01:36:44.514741Z"; tool#seq -> 1; tool#name -> "fetch_doc"].
fetch(d1)[tool#completed -> true; tool#status -> "succeeded"; tool#name -> "fetch_doc"; tool#seq -> 1; tool#started -> "2026-11-30T01:36:44.514741Z"; tool#finished -> "2026-11-30T01:36:44.524430Z"; tool#duration_ms -> 0.211; input("id") -> d1; result("text") -> "Invoice 2024-117: 3 items, total due 420.00 EUR"; result("length") -> 47; evidence("store") -> "memory"].
classify(d1)[tool#started -> "2026-11-30T01:36:44.531114Z"; tool#seq -> 2; tool#name -> "classify_text"].
classify(d1)[tool#completed -> true; tool#status -> "succeeded"; tool#name -> "classify_text"; tool#seq -> 2; tool#started -> "2026-11-30T01:36:44.531114Z"; tool#finished -> "2026-11-30T01:36:44.536975Z"; tool#duration_ms -> 2.278; input("text") -> "Invoice 2024-117: 3 items, total due 420.00 EUR"; result("label") -> "invoice"; result("confidence") -> 0.97; evidence("model") -> "keywords"].
file(d1, "invoice")[tool#started -> "2026-11-30T01:36:44.546166Z"; tool#seq -> 3; tool#name -> "file_doc"].
file(d1, "invoice")[tool#completed -> true; tool#status -> "succeeded"; tool#name -> "file_doc"; tool#seq -> 3; tool#started -> "2026-11-30T01:36:44.546166Z"; tool#finished -> "2026-11-30T01:36:44.553609Z"; tool#duration_ms -> 6.438; input("id") -> d1; input("label") -> "invoice"; result("path") -> "/archive/invoice/d1.txt"].
// episode end: reason=workflow status="filed" actions=3
