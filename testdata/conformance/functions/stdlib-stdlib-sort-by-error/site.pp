# Sample calls of stdlib::sort_by; each result is a notify message.
notice(stdlib::sort_by({'b' => 1, 'a' => 2}) |$k, $v| { $v })
