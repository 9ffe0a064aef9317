# A 4.x test function counting characters with String#count: ranges,
# negation, escapes and several sets (their intersection).
Puppet::Functions.create_function(:count_chars) do
  def count_chars(str, *sets)
    str.count(*sets)
  end
end
