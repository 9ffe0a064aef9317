# A 3.x test function with the constructs of stdlib's shuffle and
# validate_x509_rsa_key_pair: constant assignment in the function block,
# parallel assignment to index targets, and the ** operator.
module Puppet::Parser::Functions
  newfunction(:constructs3, :type => :rvalue) do |args|
    LIMIT = 4 unless defined? LIMIT
    raise Puppet::ParseError, "constructs3(): at most #{LIMIT} arguments" if args.length > LIMIT

    list = args[0].is_a?(String) ? args[0].chars : args[0].dup
    n = list.size
    (n / 2).times do |i|
      list[i], list[n - 1 - i] = list[n - 1 - i], list[i]
    end
    h = { 'a' => 1 }
    h['a'], h['b'] = h['b'], h['a']
    base = args[1] || 2
    [list, h, base ** 3, 2 ** 0, -2 ** 2, 2 ** 3 ** 2, 2.0 ** 0.5, 10 ** 18, 2.5 ** 2, defined?(LIMIT), LIMIT]
  end
end
