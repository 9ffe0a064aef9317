# Regexp.last_match and $~ are local to each method call (a recursive
# helper does not change its caller's match), and String#dump quotes
# with escapes of ASCII only (icinga2's Puppet::Icinga2::Utils).
module Puppet::Parser::Functions
  newfunction(:match_frames, :type => :rvalue) do |args|
    args.map { |a| split_expr(a) }
  end
end

def split_expr(row)
  case row
  when %r{^(.+)\s([\+-])\s(.+)$}
    '%{a} %{op} %{b}' % { a: split_expr(Regexp.last_match(1)), op: Regexp.last_match(2), b: split_expr(Regexp.last_match(3)) }
  else
    [row.dump, Regexp.last_match.nil?, Regexp.last_match(1).inspect].join('/')
  end
end
