$x = @(END:epp)
  <% if %>
  END
notice($x)
