$r = inline_epp('<%- | String $needed | -%>x=<%= $needed %>', {})
notify { $r: }
