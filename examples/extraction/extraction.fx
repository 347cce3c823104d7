// Grounded extraction: a model reads an invoice and reports its total together
// with the words of the invoice that support it (`quote`). The rules decide,
// not the model: the value is accepted only when the quote occurs in the source
// text (ignoring case) and the value occurs in the quote. The source text is the
// request's `source` input, so the receipt keeps what the model was shown.
// Runs offline on stored answers: see README.md beside this file.

inv1:Invoice[source -> "ACME Tools Ltd.\nInvoice 2024-117\n3 x Hammer  12.00\n1 x Saw  18.50\nTotal due: 54.50 EUR\nPayable within 30 days.\n"].

external extract(?Doc, total) using _llm[
    prompt -> ?Prompt;
    system -> "You extract facts from documents and quote the source verbatim.";
    source -> ?Text;
    tool#order -> 1]
  <- ?Doc:Invoice[source -> ?Text]
     AND concat("What is the total due of this invoice? Return JSON: {\"value\": \"...\", \"quote\": \"...\"}, where quote is copied verbatim from the invoice.\n\n", ?Text, ?Prompt).

// The acceptance rule: evidence in the source, value in the evidence.
accepted(?Doc, ?Field, ?Value) <-
    extract(?Doc, ?Field)[tool#status -> "succeeded";
                          result("value") -> ?Value; result("quote") -> ?Quote]
    AND ?Doc[source -> ?Text]
    AND length(?Quote, ?N) AND ?N > 0
    AND lower(?Text, ?LowText) AND lower(?Quote, ?LowQuote)
    AND contains(?LowText, ?LowQuote)
    AND contains(?Quote, ?Value).

has_accepted(?Doc, ?Field) <- accepted(?Doc, ?Field, ?_Value).

?Doc[total -> ?Value] <- accepted(?Doc, total, ?Value).

workflow[status -> accepted] <- has_accepted(inv1, total).
workflow[status -> rejected] <-
    extract(inv1, total)[tool#status -> "succeeded"] AND NOT has_accepted(inv1, total).
workflow[status -> failed] <- extract(inv1, total)[tool#status -> "failed"].

?- inv1[total -> ?Total].
?- workflow[status -> ?Status].
