# Counts the characters of a string that are in every one of the sets.
Puppet::Functions.create_function(:'demo::count_chars') do
  dispatch :count_chars do
    param 'String', :str
    repeated_param 'String', :sets
  end

  def count_chars(str, *sets)
    str.count(*sets)
  end
end
