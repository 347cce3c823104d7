// Decide on today's orders from what an SQL tool reports about them.
//
// The program never reads the database itself: it derives one request per
// order, the host runs `sql_query` (adapter fxlog.adapters.sqlite, on the
// database the operator configured) and records a receipt, and the rules
// below read the receipts. Run it as examples/orders/README.md says.

// Orders to decide on, as the operator lists them for this run.
order(1001):Order[id -> 1001].
order(1002):Order[id -> 1002].
order(1003):Order[id -> 1003].
order(1004):Order[id -> 1004].
order(1005):Order[id -> 1005].
order(1006):Order[id -> 1006].
order(1999):Order[id -> 1999].   // not in the database

// Step 1: look every order up once.
external lookup(?Id) using sql_query[
        sql -> "SELECT o.amount, o.status, c.name AS customer FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.id = ?";
        params -> ?Id;
        tool#order -> 1]
    <- ?_Order:Order[id -> ?Id].

// Receipts are joined through the request identity `lookup(?Id)`, and only a
// succeeded call counts as evidence.
?O[amount -> ?A; state -> ?S; customer -> ?C] <- ?O:Order[id -> ?Id]
    AND lookup(?Id)[tool#status -> "succeeded";
                    row(1, "amount") -> ?A; row(1, "status") -> ?S; row(1, "customer") -> ?C].

?O[flag -> "review"] <- ?O:Order[amount -> ?A] AND ?A > 500.
?O[flag -> "missing"] <- ?O:Order[id -> ?Id]
    AND lookup(?Id)[tool#status -> "succeeded"; result("count") -> 0].
?O[flag -> "tool failed"] <- ?O:Order[id -> ?Id] AND lookup(?Id)[tool#status -> "failed"].

// Step 2: a large paid order needs the customer's history of paid orders.
external history(?Customer) using sql_query[
        sql -> "SELECT count(*) AS paid, coalesce(sum(o.amount), 0) AS total FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.name = ? AND o.status = 'paid'";
        params -> ?Customer;
        tool#order -> 2]
    <- ?_Order:Order[flag -> "review"; state -> "paid"; customer -> ?Customer].

regular(?C) <- history(?C)[tool#status -> "succeeded"; row(1, "paid") -> ?N] AND ?N >= 3.
newcomer(?C) <- history(?C)[tool#status -> "succeeded"; row(1, "paid") -> ?N] AND ?N < 3.

// Decisions: exactly one per order once its evidence is in.
?O[decision -> "approve"] <- ?O:Order[state -> "paid"; amount -> ?A] AND ?A <= 500.
?O[decision -> "approve"] <- ?O:Order[flag -> "review"; state -> "paid"; customer -> ?C]
    AND regular(?C).
?O[decision -> "manual"] <- ?O:Order[flag -> "review"; state -> "paid"; customer -> ?C]
    AND newcomer(?C).
?O[decision -> "manual"] <- ?O:Order[flag -> "review"; state -> "paid"; customer -> ?C]
    AND history(?C)[tool#status -> "failed"].
?O[decision -> "hold"] <- ?O:Order[state -> ?S] AND ?S != "paid".
?O[decision -> "manual"] <- ?O:Order[flag -> "missing"].
?O[decision -> "manual"] <- ?O:Order[flag -> "tool failed"].

undecided(?O) <- ?O:Order AND NOT ?O[decision -> ?_].
workflow[status -> "done"] <- NOT undecided(?_).

?- ?O:Order[decision -> ?D].
